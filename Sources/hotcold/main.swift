print("hotcold")
