# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Command-line interface: ``python3 -m invctl [--data DIR] COMMAND ...`` and ``batch FILE``."""

import argparse
import functools
import os
import shlex
import sys

import ledgerlib

from invctl import billing, customers, inventory, payments, reports
from invctl.errors import UserError
from invctl.money import parse_day as parse_date
from invctl.store import Store
from invctl.textfmt import table

CURRENCIES = ("USD", "EUR", "GBP")
EXIT_OK, EXIT_USER, EXIT_LEDGER = 0, 2, 3


class Parser(argparse.ArgumentParser):
    """An argument parser that reports mistakes as UserError instead of exiting."""

    def error(self, message):
        raise UserError(f"usage: {message}")


@functools.cache  # the parser is stateless: built once per process, not once per batch command
def build_parser():
    parser = Parser(prog="invctl", add_help=False)
    parser.add_argument("--data", default=os.environ.get("INVCTL_DATA", "data"))
    sub = parser.add_subparsers(dest="command", parser_class=Parser)

    p = sub.add_parser("init", add_help=False)
    p.add_argument("--currency", default="USD")
    p.add_argument("--tax-rate", default="0")

    p = sub.add_parser("item", add_help=False)
    isub = p.add_subparsers(dest="action", parser_class=Parser)
    q = isub.add_parser("add", add_help=False)
    q.add_argument("sku")
    q.add_argument("name")
    q.add_argument("price")
    q = isub.add_parser("price", add_help=False)
    q.add_argument("sku")
    q.add_argument("price")
    isub.add_parser("list", add_help=False)

    p = sub.add_parser("stock", add_help=False)
    ssub = p.add_subparsers(dest="action", parser_class=Parser)
    q = ssub.add_parser("receive", add_help=False)
    q.add_argument("sku")
    q.add_argument("qty")
    q.add_argument("cost")
    q.add_argument("--date", required=True)
    q = ssub.add_parser("adjust", add_help=False)
    q.add_argument("sku")
    q.add_argument("delta")
    q.add_argument("--reason", default="count")
    q.add_argument("--date", required=True)

    p = sub.add_parser("customer", add_help=False)
    csub = p.add_subparsers(dest="action", parser_class=Parser)
    q = csub.add_parser("add", add_help=False)
    q.add_argument("cid")
    q.add_argument("name")
    q.add_argument("--terms", default="30")
    q.add_argument("--limit")
    csub.add_parser("list", add_help=False)

    p = sub.add_parser("invoice", add_help=False)
    vsub = p.add_subparsers(dest="action", parser_class=Parser)
    q = vsub.add_parser("new", add_help=False)
    q.add_argument("cid")
    q.add_argument("--date", required=True)
    q = vsub.add_parser("line", add_help=False)
    q.add_argument("inv")
    q.add_argument("sku")
    q.add_argument("qty")
    q.add_argument("--discount", default="0")
    q.add_argument("--price")
    q = vsub.add_parser("issue", add_help=False)
    q.add_argument("inv")
    q.add_argument("--date", required=True)
    q = vsub.add_parser("void", add_help=False)
    q.add_argument("inv")
    q.add_argument("--date", required=True)
    q = vsub.add_parser("plan", add_help=False)
    q.add_argument("inv")
    q.add_argument("parts")
    q = vsub.add_parser("show", add_help=False)
    q.add_argument("inv")

    p = sub.add_parser("pay", add_help=False)
    p.add_argument("cid")
    p.add_argument("amount")
    p.add_argument("--date", required=True)
    p.add_argument("--ref")
    p = sub.add_parser("refund", add_help=False)
    p.add_argument("cid")
    p.add_argument("amount")
    p.add_argument("--date", required=True)

    p = sub.add_parser("report", add_help=False)
    rsub = p.add_subparsers(dest="action", parser_class=Parser)
    q = rsub.add_parser("aging", add_help=False)
    q.add_argument("--as-of", required=True)
    rsub.add_parser("balances", add_help=False)
    rsub.add_parser("stock", add_help=False)
    q = rsub.add_parser("statement", add_help=False)
    q.add_argument("cid")

    p = sub.add_parser("batch", add_help=False)
    p.add_argument("file")
    return parser


def cmd_init(store, args):
    currency = args.currency.upper()
    if currency not in CURRENCIES:
        raise UserError(f"unsupported currency {args.currency}")
    try:
        rate = float(args.tax_rate)
    except ValueError:
        raise UserError(f"invalid tax rate: {args.tax_rate!r}") from None
    if not 0 <= rate < 100:
        raise UserError(f"invalid tax rate: {args.tax_rate!r}")
    if store.initialized:
        raise UserError("already initialized")
    store.create(currency, rate)
    store.save()
    return f"initialized: currency {currency}, tax {rate:g}%"


def dispatch(store, args):
    """Run one parsed command against a loaded store; return the text to print."""
    cmd, action = args.command, getattr(args, "action", None)
    if cmd == "item":
        if action == "add":
            return inventory.add_item(store, args.sku, args.name, args.price)
        if action == "price":
            return inventory.set_price(store, args.sku, args.price)
        if action == "list":
            return table(["sku", "name", "price", "on hand", "avg cost"], inventory.list_items(store), "llrrr")
    if cmd == "stock":
        if action == "receive":
            return inventory.receive(store, args.sku, args.qty, args.cost, parse_date(args.date))
        if action == "adjust":
            return inventory.adjust(store, args.sku, args.delta, args.reason, parse_date(args.date))
    if cmd == "customer":
        if action == "add":
            return customers.add_customer(store, args.cid, args.name, args.terms, args.limit)
        if action == "list":
            return table(["id", "name", "terms", "limit", "balance"], customers.list_customers(store), "llrrr")
    if cmd == "invoice":
        if action == "new":
            return billing.new_invoice(store, args.cid, parse_date(args.date))
        if action == "line":
            return billing.add_line(store, args.inv, args.sku, args.qty, args.discount, args.price)
        if action == "issue":
            return billing.issue(store, args.inv, parse_date(args.date))
        if action == "void":
            return billing.void(store, args.inv, parse_date(args.date))
        if action == "plan":
            return billing.plan(store, args.inv, args.parts)
        if action == "show":
            return billing.show(store, args.inv)
    if cmd == "pay":
        return payments.pay(store, args.cid, args.amount, parse_date(args.date), args.ref)
    if cmd == "refund":
        return payments.refund(store, args.cid, args.amount, parse_date(args.date))
    if cmd == "report":
        if action == "aging":
            return reports.aging(store, parse_date(args.as_of))
        if action == "balances":
            return reports.balances(store)
        if action == "stock":
            return reports.stock(store)
        if action == "statement":
            return reports.statement(store, args.cid)
    raise UserError("usage: missing or unknown command")


def run_command(argv, data_dir=None):
    """Parse and run one command; return (exit code, output text).  State is saved only on success."""
    try:
        args = build_parser().parse_args(argv)
        if data_dir is not None:
            args.data = data_dir
        if args.command == "batch":
            return EXIT_OK, run_batch(args.file, args.data)
        store = Store(args.data)
        if args.command == "init":
            return EXIT_OK, cmd_init(store, args)
        store.load()
        text = dispatch(store, args)
        store.save()
        return EXIT_OK, text
    except UserError as exc:
        return EXIT_USER, f"error: {exc}"
    except ledgerlib.LedgerError as exc:
        return EXIT_LEDGER, f"error: ledger: {exc}"


def run_batch(path, data_dir):
    """Run every command line of a file in order; errors are reported and the batch goes on."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None
    out = []
    failures = 0
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        out.append(f"> {line}")
        try:
            argv = shlex.split(line)
        except ValueError as exc:
            out.append(f"error: usage: {exc}")
            failures += 1
            continue
        if argv and argv[0] == "batch":
            out.append("error: usage: nested batch")
            failures += 1
            continue
        code, text = run_command(argv, data_dir)
        failures += code != EXIT_OK
        out.append(text)
    out.append(f"batch done: {len([l for l in out if l.startswith('> ')])} commands, {failures} failed")
    return "\n".join(out)


def main(argv=None):
    code, text = run_command(sys.argv[1:] if argv is None else argv)
    print(text)
    return code
