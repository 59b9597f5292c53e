class ModelNew:
    pass
