print("hotcoldd")
