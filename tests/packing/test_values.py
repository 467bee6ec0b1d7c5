from __future__ import annotations

import pytest

from packgap.packing.values import ddl_value, eff_value, total_value


def test_eff_value_eq1() -> None:
    # Table 4: 145 + 445 ms alone against 543 ms interleaved.
    assert eff_value([145.0, 445.0], 543.0) == pytest.approx(590 / 543)
    with pytest.raises(ValueError):
        eff_value([1.0], 0.0)


def test_ddl_value_eq11() -> None:
    assert ddl_value([30.0, 50.0], now=10.0) == pytest.approx(0.5)
    assert ddl_value([30.0], now=10.0) == 1.0
    assert ddl_value([5.0, 50.0], now=10.0) == 0.0


def test_total_value_eq12() -> None:
    assert total_value(1.2, 0.5) == pytest.approx(0.6 * 1.2 + 0.4 * 0.5)
    assert total_value(1.2, 0.5, w=1.0) == pytest.approx(1.2)
    with pytest.raises(ValueError, match="w must"):
        total_value(1.0, 1.0, w=1.5)
