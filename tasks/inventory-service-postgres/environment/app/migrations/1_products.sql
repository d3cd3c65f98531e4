-- lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
CREATE TABLE products (
    id         bigserial PRIMARY KEY,
    sku        text NOT NULL UNIQUE,
    name       text NOT NULL,
    price      double precision NOT NULL,
    stock      integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
