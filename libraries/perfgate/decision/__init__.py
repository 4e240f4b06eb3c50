"""The decision: from a suite's runs to each criterion's verdict (docs/architecture.md, "The decision")."""
