"""Command-line sub-commands of ``klabsite``."""
