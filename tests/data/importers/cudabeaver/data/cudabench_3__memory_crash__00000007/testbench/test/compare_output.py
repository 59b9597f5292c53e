print('T')
