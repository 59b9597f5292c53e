"""Reports from saved run directories: statistics, tables in several formats, plots and a sample browser.

Submodules are imported where used (`report.command` is what the `hwrepair` command loads), so the
command's other subcommands never pay for numpy and scipy.
"""
