"""klabsite: a rules engine for Klaberjass and Klaverjas, deal records, and a static rules and replay site."""

__version__ = "0.1.0"
