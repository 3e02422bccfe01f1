"""Reports on memory plans: plain-text tables, JSON-ready dicts and Gantt pictures."""
