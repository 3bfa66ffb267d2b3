"""Blocks that put chaff into other tools' pipelines (``chaff.integrations.datatrove``)."""
