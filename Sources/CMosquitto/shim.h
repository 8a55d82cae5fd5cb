#ifndef HOTCOLD_CMOSQUITTO_SHIM_H
#define HOTCOLD_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#endif
