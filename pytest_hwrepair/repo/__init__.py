"""Repository-level RTL cases (DESIGN §3): snapshot, issue, gold patch, F2P/P2P testbenches, localisation.

Kept free of imports: `cases.py` imports `repo.load`, and every other module here builds on the core.
"""
