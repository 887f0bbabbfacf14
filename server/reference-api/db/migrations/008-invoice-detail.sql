-- The breakdown of each invoice (energy and power per period, excess power, tolls and charges,
-- taxes, rental), as computed when it was issued: JSON (domain/invoicing.ts `DetalleFactura`).
-- Invoices issued before this column existed have none (NULL) and show no breakdown.
ALTER TABLE facturas ADD COLUMN detalle TEXT;
