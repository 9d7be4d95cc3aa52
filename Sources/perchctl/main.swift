print("perchctl: under construction")
