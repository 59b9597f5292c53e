# the runner's task definition
