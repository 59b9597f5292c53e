"""Repository-level RTL cases (DESIGN §3): snapshot, issue, gold patch, F2P/P2P testbenches, localisation.

Kept free of imports: `cases/load.py` imports `repo.load`, `oracles/rtl/repo_tests.py` declares the `rtl-repo`
kind from `repo.candidate`, and every module here builds on the core.
"""
