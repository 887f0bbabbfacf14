-- Numbered 011: it was first shipped as a second 010, which a database already at 010 skipped;
-- IF NOT EXISTS lets a database that has it already take this one too.
-- Lookups of one record by key at 100 000 contracts per brand (the command palette, issue 17).
-- A client's supply points in CUPS order: without it SQLite walks the brand's whole CUPS index
-- (puntos_suministro_lista_cups) to skip the sort, testing every supply point of the brand.
CREATE INDEX IF NOT EXISTS puntos_suministro_cliente_cups ON puntos_suministro(cliente_id, marca_id, cups);
