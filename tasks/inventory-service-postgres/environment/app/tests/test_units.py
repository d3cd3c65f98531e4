# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Unit tests of the pure helpers (no database needed): python3 -m unittest discover -s tests"""

from __future__ import annotations

import unittest
from datetime import datetime, timezone

from inventory import api, money, timeutil


class MoneyTest(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(money.parse("12.50"), money.parse("12.5"))

    def test_discount_rounds_to_cents(self):
        self.assertEqual(money.text(money.discounted(money.parse("22.35"), 10)), money.text(money.parse("20.12")))


class TimeTest(unittest.TestCase):
    def test_parse_utc(self):
        got = timeutil.parse_instant("2026-03-02T04:30:00Z")
        self.assertEqual(got.replace(tzinfo=None), datetime(2026, 3, 2, 4, 30))

    def test_format(self):
        self.assertTrue(timeutil.format_instant(datetime(2026, 3, 2, 4, 30)).endswith("Z"))


class OrderParsingTest(unittest.TestCase):
    def test_items(self):
        items, placed_at, discount = api.parse_order(
            {"items": [{"product_id": 1, "qty": 2}], "placed_at": "2026-01-01T00:00:00Z"})
        self.assertEqual(items, [(1, 2)])
        self.assertEqual(discount, 0)

    def test_rejects_zero_qty(self):
        with self.assertRaises(api.ApiError):
            api.parse_order({"items": [{"product_id": 1, "qty": 0}], "placed_at": "2026-01-01T00:00:00Z"})


if __name__ == "__main__":
    unittest.main()
