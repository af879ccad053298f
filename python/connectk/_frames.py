"""Records as tables: a pandas DataFrame when pandas is installed, a list of dicts otherwise."""

from __future__ import annotations

from typing import Any, Dict, List, Optional


def table(records: List[Dict[str, Any]], frame: Optional[bool] = None) -> Any:
    """``records`` as a pandas DataFrame (``frame=True``, or ``None`` when pandas is
    installed) or as the list itself (``frame=False``, or ``None`` without pandas)."""
    if frame is False:
        return records
    try:
        import pandas
    except ImportError:
        if frame:
            raise ImportError(
                "frame=True needs pandas: pip install 'connectk[pandas]'"
            ) from None
        return records
    return pandas.DataFrame.from_records(records)
