"""Repository-level RTL cases (DESIGN §3): snapshot, issue, gold patch, F2P/P2P testbenches, localisation.

Kept free of imports: core modules import `repo.load` and `repo.candidate`, and every module here builds on the core.
"""
