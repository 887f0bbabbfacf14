-- One unit in the renewals list: every renewal's current and proposed average energy price in
-- €/kWh. precio_actual/precio_propuesto keep the renewal's terms (the average €/kWh of a fixed
-- contract, the fee in €/MWh of an indexed one); for an indexed contract these columns hold the
-- closing-price index of its tariff over the 12 months before the seed day with each fee
-- (lib/renewal-prices.ts fills them).
ALTER TABLE renovaciones ADD COLUMN precio_medio_actual_kwh REAL;
ALTER TABLE renovaciones ADD COLUMN precio_medio_propuesto_kwh REAL;
UPDATE renovaciones SET precio_medio_actual_kwh = precio_actual, precio_medio_propuesto_kwh = precio_propuesto
  WHERE contrato_id IN (SELECT id FROM contratos WHERE modalidad = 'fijo');
