#ifndef HOTCOLD_CGPS_SHIM_H
#define HOTCOLD_CGPS_SHIM_H
#include <gps.h>
#endif
