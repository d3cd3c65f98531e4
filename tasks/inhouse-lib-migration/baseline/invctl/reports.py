# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reports: receivables aging, trial balance, stock valuation and customer statements."""

from invctl.money import days_between, fmt, fmt_day, parse_day

from invctl.customers import get_customer, open_amount, open_invoices
from invctl.inventory import stock_value
from invctl.textfmt import table

BUCKETS = ("current", "1-30", "31-60", "61-90", "90+")


def bucket_of(days_overdue):
    if days_overdue <= 0:
        return 0
    if days_overdue <= 30:
        return 1
    if days_overdue <= 60:
        return 2
    if days_overdue <= 90:
        return 3
    return 4


def aging(store, as_of):
    rows = []
    totals = [0] * (len(BUCKETS) + 2)
    for cid in sorted(store.customers):
        customer = store.customers[cid]
        buckets = [0] * len(BUCKETS)
        for _, invoice in open_invoices(store, cid):
            if parse_day(invoice["issued_on"]) > as_of:
                continue
            index = bucket_of(days_between(parse_day(invoice["due"]), as_of))
            buckets[index] = buckets[index] + open_amount(invoice)
        credit = customer["credit"]
        if not any(buckets) and not credit:
            continue
        net = sum(buckets) - credit
        values = buckets + [-credit if credit else 0, net]
        totals = [t + v for t, v in zip(totals, values)]
        rows.append([cid] + [fmt(v) for v in values])
    rows.append(["TOTAL"] + [fmt(v) for v in totals])
    title = f"Receivables aging as of {fmt_day(as_of)}"
    return title + "\n" + table(["customer", *BUCKETS, "credit", "net"], rows, "lrrrrrrr")


def balances(store):
    rows = []
    debit_total = credit_total = 0
    for account, amount in store.journal.trial_balance().items():
        if amount > 0:
            rows.append([account, fmt(amount), ""])
            debit_total = debit_total + amount
        elif amount < 0:
            rows.append([account, "", fmt(-amount)])
            credit_total = credit_total - amount
    rows.append(["TOTAL", fmt(debit_total), fmt(credit_total)])
    status = "balanced" if debit_total == credit_total else "OUT OF BALANCE"
    net_income = (
        -store.journal.balance_of("4000 Sales")
        - store.journal.balance_of("5000 Cost of Goods")
        - store.journal.balance_of("5100 Shrinkage")
    )
    return "\n".join(
        [table(["account", "debit", "credit"], rows, "lrr"), f"{status}; net income {fmt(net_income)}"]
    )


def stock(store):
    rows = []
    total = 0
    for sku in sorted(store.items):
        item = store.items[sku]
        value = stock_value(item)
        total = total + value
        rows.append([sku, item["on_hand"], fmt(item["avg_cost"]), fmt(value)])
    rows.append(["TOTAL", "", "", fmt(total)])
    return table(["sku", "on hand", "avg cost", "value"], rows, "lrrr")


def statement(store, cid):
    customer = get_customer(store, cid)
    events = []
    for inv_id, invoice in store.invoices.items():
        if invoice["customer"] != cid or not invoice["issued_on"]:
            continue
        events.append((invoice["issued_on"], 0, inv_id, f"invoice {inv_id}", invoice["total"]))
        if invoice["voided_on"]:
            events.append((invoice["voided_on"], 1, inv_id, f"void {inv_id}", -invoice["total"]))
    for payment in store.payments:
        if payment["customer"] == cid:
            sign = -1 if payment["kind"] == "payment" else 1
            events.append((payment["date"], 2, payment["id"], f"{payment['kind']} {payment['id']}", sign * payment["amount"]))
    events.sort()
    running = 0
    rows = []
    for date, _, _, what, amount in events:
        running = running + amount
        rows.append([date, what, fmt(amount), fmt(running)])
    header = f"Statement for {cid} ({customer['name']})"
    open_total = sum(open_amount(inv) for _, inv in open_invoices(store, cid))
    footer = f"open invoices {fmt(open_total)}; unapplied credit {fmt(customer['credit'])}"
    return "\n".join([header, table(["date", "entry", "amount", "balance"], rows, "llrr"), footer])
