class Model:
    def forward(self, a):
        return a
