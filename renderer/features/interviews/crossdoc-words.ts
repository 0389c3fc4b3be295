import type { Bilingual } from '../../i18n/index';

/** Fields the cross-document comparison names (the service does not list them: these are the ones seen so far). */
export const CROSSDOC_FIELDS: Record<string, Bilingual> = {
  fullName: { en: 'Full name', es: 'Nombre completo' },
  name: { en: 'Name', es: 'Nombre' },
  firstName: { en: 'First name', es: 'Nombre' },
  givenNames: { en: 'Given names', es: 'Nombres' },
  middleName: { en: 'Middle name', es: 'Segundo nombre' },
  lastName: { en: 'Last name', es: 'Apellido' },
  firstLastName: { en: 'First last name', es: 'Apellido paterno' },
  secondLastName: { en: 'Second last name', es: 'Apellido materno' },
  birthDate: { en: 'Date of birth', es: 'Fecha de nacimiento' },
  dateOfBirth: { en: 'Date of birth', es: 'Fecha de nacimiento' },
  birthPlace: { en: 'Place of birth', es: 'Lugar de nacimiento' },
  documentNumber: { en: 'Document number', es: 'Número de documento' },
  curp: { en: 'CURP', es: 'CURP' },
  rfc: { en: 'RFC', es: 'RFC' },
  address: { en: 'Address', es: 'Domicilio' },
  gender: { en: 'Sex', es: 'Sexo' },
  sex: { en: 'Sex', es: 'Sexo' },
  nationality: { en: 'Nationality', es: 'Nacionalidad' },
  expirationDate: { en: 'Expiry date', es: 'Fecha de vencimiento' },
  issueDate: { en: 'Issue date', es: 'Fecha de emisión' },
  electorKey: { en: 'Elector key', es: 'Clave de elector' },
};

/** Where a compared value was read, and the other keys an entry carries. */
export const CROSSDOC_SOURCES: Record<string, Bilingual> = {
  frontId: { en: 'Front of ID', es: 'Frente de la identificación' },
  backId: { en: 'Back of ID', es: 'Reverso de la identificación' },
  curp: { en: 'CURP (RENAPO)', es: 'CURP (RENAPO)' },
  rfc: { en: 'RFC (SAT)', es: 'RFC (SAT)' },
  passport: { en: 'Passport', es: 'Pasaporte' },
  selfie: { en: 'Selfie', es: 'Selfie' },
  proofOfAddress: { en: 'Proof of address', es: 'Comprobante de domicilio' },
  form: { en: 'Form', es: 'Formulario' },
  reason: { en: 'Reason', es: 'Motivo' },
  value: { en: 'Value', es: 'Valor' },
};

/** Statuses other than a plain match or mismatch (those show as the verdict). */
export const CROSSDOC_STATUSES: Record<string, Bilingual> = {
  NOT_COMPARED: { en: 'Not compared', es: 'No comparado' },
  NOT_AVAILABLE: { en: 'Not available', es: 'No disponible' },
  PARTIAL_MATCH: { en: 'Partial match', es: 'Coincidencia parcial' },
};
