"""The native engine (`_core`) shared by every env family."""
