-- lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
CREATE TABLE idempotency_keys (
    key        text NOT NULL,
    response   text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
