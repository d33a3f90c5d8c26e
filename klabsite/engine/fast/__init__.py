"""The unchecked fast path: bitmask hands and integer tables for bots, the solver and benchmarks.

Nothing here checks its input or records events; it is tested to agree with the engines'
``legal_actions()`` on thousands of positions. The public API lives in the engine modules.
"""
