/** Spanish given names and surnames for demo people. */
export const NOMBRES = [
  'Antonio', 'Manuel', 'José', 'Francisco', 'David', 'Juan', 'Javier', 'Daniel', 'Carlos', 'Jesús',
  'Alejandro', 'Miguel', 'Rafael', 'Pablo', 'Sergio', 'Fernando', 'Jorge', 'Alberto', 'Luis', 'Álvaro',
  'Adrián', 'Diego', 'Raúl', 'Iván', 'Rubén', 'Óscar', 'Andrés', 'Joaquín', 'Santiago', 'Íñigo',
  'María', 'Carmen', 'Ana', 'Isabel', 'Laura', 'Cristina', 'Marta', 'Lucía', 'Elena', 'Paula',
  'Sara', 'Raquel', 'Beatriz', 'Rosa', 'Pilar', 'Nuria', 'Silvia', 'Patricia', 'Mónica', 'Irene',
  'Alba', 'Noelia', 'Begoña', 'Inmaculada', 'Montserrat', 'Ainhoa', 'Aitana', 'Rocío', 'Nerea', 'Sofía',
] as const

export const APELLIDOS = [
  'García', 'Rodríguez', 'González', 'Fernández', 'López', 'Martínez', 'Sánchez', 'Pérez', 'Gómez', 'Martín',
  'Jiménez', 'Ruiz', 'Hernández', 'Díaz', 'Moreno', 'Muñoz', 'Álvarez', 'Romero', 'Alonso', 'Gutiérrez',
  'Navarro', 'Torres', 'Domínguez', 'Vázquez', 'Ramos', 'Gil', 'Ramírez', 'Serrano', 'Blanco', 'Molina',
  'Morales', 'Suárez', 'Ortega', 'Delgado', 'Castro', 'Ortiz', 'Rubio', 'Marín', 'Sanz', 'Núñez',
  'Iglesias', 'Medina', 'Garrido', 'Cortés', 'Castillo', 'Santos', 'Lozano', 'Guerrero', 'Cano', 'Prieto',
  'Méndez', 'Cruz', 'Calvo', 'Gallego', 'Vidal', 'León', 'Márquez', 'Herrera', 'Peña', 'Cabrera',
  'Etxeberria', 'Aguirre', 'Puig', 'Ferrer', 'Soler', 'Castaño', 'Otero', 'Rey', 'Pascual', 'Vega',
] as const

/** Words for company names: "<prefix> <core> <suffix>". */
export const EMPRESA_NUCLEOS = [
  'Hermanos', 'Talleres', 'Construcciones', 'Panadería', 'Bodegas', 'Transportes', 'Hostelería', 'Clínica',
  'Farmacia', 'Instalaciones', 'Frutas', 'Carpintería', 'Gestoría', 'Asesores', 'Hotel', 'Restaurante',
  'Gimnasio', 'Residencia', 'Comunidad de Propietarios', 'Cooperativa Agrícola', 'Almacenes', 'Inmobiliaria',
  'Estructuras Metálicas', 'Conservas', 'Aceites', 'Ingeniería', 'Logística', 'Peluquería', 'Academia', 'Imprenta',
] as const

export const EMPRESA_ADJETIVOS = [
  'del Norte', 'del Sur', 'Levante', 'Mediterráneo', 'Cantábrico', 'Atlántico', 'La Vega', 'El Olivar',
  'San Isidro', 'Santa Bárbara', 'La Esperanza', 'El Pilar', 'Sierra Nevada', 'Los Álamos', 'Río Duero',
  'La Mancha', 'Guadalquivir', 'Montseny', 'Costa Brava', 'Las Rozas', 'Miramar', 'El Puerto',
] as const

/** Entity letters of CIF and the legal form that goes with them. */
export const FORMAS_JURIDICAS = [
  ['B', 'S.L.'],
  ['A', 'S.A.'],
  ['F', 'S.Coop.'],
  ['H', ''],
  ['E', 'C.B.'],
  ['J', 'S.C.'],
] as const

/** Street names found in towns all over Spain (none tied to one city). */
export const CALLES = [
  'Calle Mayor', 'Calle Real', 'Avenida de la Constitución', 'Calle del Sol', 'Plaza de España',
  'Calle San Juan', 'Calle Nueva', 'Calle del Carmen', 'Calle de la Iglesia', 'Calle Colón',
  'Calle de Cervantes', 'Calle Goya', 'Calle Velázquez', 'Avenida de la Libertad', 'Calle Doctor Fleming',
  'Calle Ramón y Cajal', 'Calle Santa María', 'Calle del Pilar', 'Calle de la Paz', 'Calle Miguel de Unamuno',
] as const

/** Industrial estates for large businesses (generic names; a nave number follows). */
export const POLIGONOS = ['Polígono Industrial San Isidro', 'Polígono Industrial La Estación', 'Polígono Industrial Los Llanos', 'Polígono Industrial El Camino'] as const

/** Streets that belong to one city: used only there. */
export const CALLES_LOCALES: Record<string, readonly string[]> = {
  Madrid: ['Paseo de la Castellana', 'Calle de Alcalá', 'Gran Vía', 'Calle de Bravo Murillo', 'Calle de Serrano'],
  Barcelona: ['Rambla de Catalunya', 'Passeig de Gràcia', 'Avinguda Diagonal', 'Carrer de Balmes'],
  'València': ['Avinguda de Blasco Ibáñez', "Carrer de Sant Vicent Màrtir"],
  Sevilla: ['Calle Sierpes', 'Avenida de la Buhaira'],
  Bilbao: ['Gran Vía de Don Diego López de Haro', 'Calle Ercilla'],
  Zaragoza: ['Paseo de la Independencia', 'Calle del Coso'],
  'Málaga': ['Calle Larios', 'Alameda Principal'],
}
