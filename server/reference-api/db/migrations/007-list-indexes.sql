-- Indexes for the contract list at scale (100 000 contracts per brand): every sort of
-- `GET /api/contract` reads its page from an index in order, and counts read an index instead
-- of the table (lib/keyed-page.ts).
--
-- Contracts: the brand, the sort column, then the default order (fecha_alta DESC, codigo DESC)
-- that breaks its ties, so an ascending sort is a plain index walk and a descending one walks
-- back and orders only rows that tie. Text columns sort accent- and case-blind, as
-- `unaccent(…)`: those indexes hold the folded text (the function is registered on every
-- connection, db/database.ts). Codes (contract code, NIF, CUPS, postcode, CNAE) sort as stored.
-- The unique (marca_id, codigo) index serves the code sort, contratos_lista_id the id sort.
-- Sorts by a catalog name (state, tariff, province) have indexes of their own, made from the
-- catalogs when the database opens (db/catalog-indexes.ts).

DROP INDEX contratos_marca_fecha_alta;
DROP INDEX contratos_marca_estado;
DROP INDEX contratos_marca_agente;
DROP INDEX contratos_marca_renovacion;

CREATE INDEX contratos_lista_id ON contratos(marca_id);
CREATE INDEX contratos_lista_alta ON contratos(marca_id, fecha_alta, codigo);
CREATE INDEX contratos_lista_estado ON contratos(marca_id, estado, fecha_alta DESC, codigo DESC);
CREATE INDEX contratos_lista_agente ON contratos(marca_id, agente_id, fecha_alta DESC, codigo DESC);
CREATE INDEX contratos_lista_renovacion ON contratos(marca_id, fecha_proxima_renovacion, fecha_alta DESC, codigo DESC);
CREATE INDEX contratos_lista_tarifa ON contratos(marca_id, tarifa_id, fecha_alta DESC, codigo DESC);
CREATE INDEX contratos_lista_modalidad ON contratos(marca_id, modalidad, fecha_alta DESC, codigo DESC);
CREATE INDEX contratos_lista_motivo ON contratos(marca_id, unaccent(motivo_rechazo), fecha_alta DESC, codigo DESC);
CREATE INDEX contratos_lista_firma ON contratos(marca_id, fecha_firma, fecha_alta DESC, codigo DESC);
CREATE INDEX contratos_lista_activacion ON contratos(marca_id, fecha_activacion, fecha_alta DESC, codigo DESC);
CREATE INDEX contratos_lista_baja ON contratos(marca_id, fecha_baja, fecha_alta DESC, codigo DESC);
CREATE INDEX contratos_lista_cnae ON contratos(marca_id, cnae, fecha_alta DESC, codigo DESC);
CREATE INDEX contratos_lista_potencia_p1 ON contratos(marca_id, potencia_p1, fecha_alta DESC, codigo DESC);
CREATE INDEX contratos_lista_potencia_p2 ON contratos(marca_id, potencia_p2, fecha_alta DESC, codigo DESC);
CREATE INDEX contratos_lista_consumo ON contratos(marca_id, consumo_anual_kwh, fecha_alta DESC, codigo DESC);

-- Clients and supply points: a sort or filter on their columns starts from them (brand first),
-- then finds each one's contracts by these two, which also hold what the contract side checks
-- and sorts by (brand, default order) so that step reads no table. The unique (marca_id, nif)
-- index serves the NIF.
DROP INDEX contratos_cliente;
DROP INDEX contratos_punto_suministro;
DROP INDEX puntos_suministro_marca;

CREATE INDEX contratos_cliente ON contratos(cliente_id, marca_id, fecha_alta, codigo);
CREATE INDEX contratos_punto_suministro ON contratos(punto_suministro_id, marca_id, fecha_alta, codigo);

CREATE INDEX clientes_lista_titular ON clientes(marca_id, unaccent(titular));
CREATE INDEX clientes_lista_tipo ON clientes(marca_id, tipo);
CREATE INDEX puntos_suministro_lista_cups ON puntos_suministro(marca_id, cups);
CREATE INDEX puntos_suministro_lista_provincia ON puntos_suministro(marca_id, provincia_id);
CREATE INDEX puntos_suministro_lista_municipio ON puntos_suministro(marca_id, unaccent(municipio));
CREATE INDEX puntos_suministro_lista_codigo_postal ON puntos_suministro(marca_id, codigo_postal);
CREATE INDEX puntos_suministro_lista_distribuidora ON puntos_suministro(marca_id, unaccent(distribuidora_nombre));
