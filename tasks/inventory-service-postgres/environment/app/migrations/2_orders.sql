-- lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
CREATE TABLE orders (
    id           bigserial PRIMARY KEY,
    status       text NOT NULL,
    placed_at    timestamp NOT NULL,
    discount_pct integer NOT NULL DEFAULT 0,
    total        double precision NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE order_items (
    order_id   bigint NOT NULL,
    product_id bigint NOT NULL,
    qty        integer NOT NULL,
    unit_price double precision NOT NULL,
    line_total double precision NOT NULL
);
