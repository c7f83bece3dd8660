print("deskdays")
