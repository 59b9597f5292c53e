"""Reports from saved run directories: statistics, tables in several formats, plots and a sample browser.

Submodules are imported where used, so the `hwrepair` command's other subcommands never pay for numpy and scipy.
"""
