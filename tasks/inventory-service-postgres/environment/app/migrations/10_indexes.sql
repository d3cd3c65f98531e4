-- lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
CREATE INDEX orders_status ON orders (status);
CREATE INDEX order_items_order ON order_items (order_id);
CREATE INDEX idempotency_keys_key ON idempotency_keys (key);
