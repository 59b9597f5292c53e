"""Repository-level RTL cases (DESIGN §3): snapshot, issue, gold patch, F2P/P2P testbenches, localisation.

Kept free of imports: `loading.py` imports `repo.load`, `oracles/rtl_repo.py` declares the `rtl-repo` kind
from `repo.runner`, and every module here builds on the core.
"""
