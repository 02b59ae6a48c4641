"""Standalone scripts from the attacks on the run-level rules (issue 43, round 8): each
exits 1 while its bug is there, 0 once fixed; ``test_attack_repros.py`` runs them."""
