import { PDFDocument, StandardFonts, rgb, type PDFFont } from 'pdf-lib';
import type { ContractSeed } from './seed';

/** Fixed metadata dates keep every rendering of a contract byte-identical, so its NOM-151 evidence stays checkable. */
const SIGNED_AT = new Date('2025-09-12T17:42:00.000Z');

const CLAUSES: Record<ContractSeed['kind'], string[]> = {
  credito: [
    'PRIMERA. OBJETO. La Financiera otorga al Acreditado un crédito simple por la cantidad de $85,000.00 (ochenta y cinco mil pesos 00/100 M.N.), que el Acreditado se obliga a restituir en los plazos y condiciones pactados en este contrato.',
    'SEGUNDA. DISPOSICIÓN. El importe del crédito se depositará en la cuenta CLABE que el Acreditado indicó durante su proceso de alta, dentro de los dos días hábiles siguientes a la firma de este instrumento.',
    'TERCERA. PLAZO Y PAGOS. El Acreditado pagará el crédito en 24 amortizaciones mensuales, iguales y consecutivas, de acuerdo con la tabla de amortización que forma parte integrante del presente contrato.',
    'CUARTA. INTERESES. El crédito causará intereses ordinarios a una tasa fija anual del 28.5%. El Costo Anual Total (CAT) promedio, sin IVA, es de 36.2%, para fines informativos y de comparación.',
    'QUINTA. PAGOS ANTICIPADOS. El Acreditado podrá realizar pagos anticipados sin penalización; éstos se aplicarán al saldo insoluto del principal, reduciendo el número de amortizaciones pendientes.',
    'SEXTA. INCUMPLIMIENTO. La falta de pago oportuno de cualquier amortización generará intereses moratorios sobre el monto vencido, a una tasa equivalente a 1.5 veces la tasa ordinaria pactada.',
    'SÉPTIMA. FIRMA ELECTRÓNICA. Las partes reconocen que la firma electrónica y la constancia de conservación de mensajes de datos conforme a la NOM-151-SCFI-2016 producen los mismos efectos que la firma autógrafa.',
    'OCTAVA. JURISDICCIÓN. Para la interpretación y cumplimiento de este contrato, las partes se someten a las leyes y tribunales competentes de la Ciudad de México, renunciando a cualquier otro fuero.',
  ],
  privacidad: [
    'RESPONSABLE. La Financiera, con domicilio en la Ciudad de México, es responsable del tratamiento de sus datos personales conforme a la Ley Federal de Protección de Datos Personales en Posesión de los Particulares.',
    'DATOS QUE RECABAMOS. Datos de identificación, contacto, biométricos (imagen facial y video de prueba de vida), patrimoniales y los contenidos en su identificación oficial, CURP y RFC.',
    'FINALIDADES. Verificar su identidad, prevenir fraudes y operaciones con recursos de procedencia ilícita, cumplir obligaciones regulatorias y administrar la relación contractual.',
    'DERECHOS ARCO. Usted puede acceder, rectificar, cancelar u oponerse al tratamiento de sus datos mediante solicitud al correo privacidad@financiera-demo.mx, conforme al procedimiento publicado en nuestro portal.',
    'TRANSFERENCIAS. Sus datos podrán transferirse a autoridades competentes y a proveedores de verificación de identidad que actúan como encargados, bajo las mismas obligaciones de confidencialidad.',
  ],
  seguro: [
    'OBJETO DEL SEGURO. La Aseguradora cubre el saldo insoluto del crédito en caso de fallecimiento o invalidez total y permanente del Asegurado durante la vigencia de la póliza.',
    'SUMA ASEGURADA. Será igual al saldo insoluto del crédito a la fecha del siniestro, sin exceder el monto originalmente dispuesto.',
    'PRIMA. La prima mensual se calcula sobre el saldo insoluto y se cobrará junto con cada amortización del crédito.',
    'EXCLUSIONES. No se cubren siniestros derivados de enfermedades preexistentes no declaradas ni de actos intencionales del Asegurado.',
    'RECLAMACIONES. Los beneficiarios deberán presentar el acta de defunción y la documentación que la Aseguradora solicite dentro de los plazos legales.',
  ],
  domiciliacion: [
    'AUTORIZACIÓN. El Titular autoriza a la Financiera a cargar en su cuenta los importes de las amortizaciones del crédito en las fechas de pago pactadas.',
    'CANCELACIÓN. El Titular podrá cancelar esta domiciliación en cualquier momento mediante solicitud a su institución bancaria, sin costo alguno.',
    'ACLARACIONES. El Titular podrá objetar cargos no reconocidos dentro de los 90 días naturales siguientes a la fecha del cargo.',
  ],
};

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) > width && line) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function money(n: number): string {
  return `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** French (level-payment) amortization, as Mexican consumer credit contracts print it. */
function amortization(amount: number, annualRate: number, months: number) {
  const rate = annualRate / 12;
  const payment = Math.round(((amount * rate) / (1 - (1 + rate) ** -months)) * 100) / 100;
  let balance = amount;
  return Array.from({ length: months }, (_, i) => {
    const interest = Math.round(balance * rate * 100) / 100;
    const principal = i === months - 1 ? balance : Math.round((payment - interest) * 100) / 100;
    balance = Math.round((balance - principal) * 100) / 100;
    return { number: i + 1, principal, interest, payment: Math.round((principal + interest) * 100) / 100, balance };
  });
}

/** A real, multi-page contract PDF in Spanish for one seeded document and signer. */
export async function renderContractPdf(
  contract: ContractSeed,
  signerName: string,
  interviewId: string,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(contract.title);
  doc.setAuthor('Omni demo');
  doc.setSubject(`Entrevista ${interviewId}`);
  doc.setCreator('Omni demo server');
  doc.setProducer('pdf-lib');
  doc.setLanguage('es-MX');
  doc.setCreationDate(SIGNED_AT);
  doc.setModificationDate(SIGNED_AT);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const margin = 64;
  const [pageWidth, pageHeight] = [612, 792];
  const textWidth = pageWidth - margin * 2;
  const paragraphs = [
    `En la Ciudad de México, a 12 de septiembre de 2025, comparecen por una parte la institución que se identifica en el encabezado y, por la otra, ${signerName}, quien se identificó mediante verificación remota de identidad (entrevista ${interviewId}).`,
    ...CLAUSES[contract.kind],
    'Leído que fue el presente documento y enteradas las partes de su contenido y alcance legal, lo firman electrónicamente en la fecha indicada en la hoja de firmas.',
  ];
  let page = doc.addPage([pageWidth, pageHeight]);
  let y = pageHeight - margin;
  const newPage = () => {
    page = doc.addPage([pageWidth, pageHeight]);
    y = pageHeight - margin;
  };
  const heading = (text: string) => {
    page.drawText(text, { x: margin, y, size: 15, font: bold, color: rgb(0.1, 0.15, 0.3) });
    y -= 28;
  };
  const line = (text: string, font = regular, x = margin) => {
    if (y < margin + 20) newPage();
    page.drawText(text, { x, y, size: 11, font, color: rgb(0.1, 0.1, 0.1) });
    y -= 15;
  };
  heading(contract.title.toUpperCase());
  for (const paragraph of paragraphs) {
    for (const text of wrap(paragraph, regular, 11, textWidth)) line(text);
    y -= 9;
  }
  if (contract.kind === 'credito') {
    newPage();
    heading('ANEXO A. TABLA DE AMORTIZACIÓN');
    const columns = [margin, margin + 50, margin + 150, margin + 250, margin + 350];
    const row = (cells: string[], font = regular) => {
      if (y < margin + 20) newPage();
      cells.forEach((cell, i) => page.drawText(cell, { x: columns[i]!, y, size: 10, font, color: rgb(0.1, 0.1, 0.1) }));
      y -= 14;
    };
    row(['Pago', 'Capital', 'Interés', 'Pago total', 'Saldo insoluto'], bold);
    for (const p of amortization(85_000, 0.285, 24))
      row([String(p.number), money(p.principal), money(p.interest), money(p.payment), money(p.balance)]);
  }
  newPage();
  heading('HOJA DE FIRMAS');
  for (const text of [
    `Cliente: ${signerName}`,
    `Documento: ${contract.documentId}`,
    `Entrevista de verificación de identidad: ${interviewId}`,
    'Fecha y hora de firma: 12 de septiembre de 2025, 11:42 (hora del centro de México)',
    'Medio: firma electrónica con verificación biométrica remota (selfie y video de prueba de vida).',
    'Conservación: constancia de conservación de mensajes de datos conforme a la NOM-151-SCFI-2016.',
  ]) {
    for (const wrapped of wrap(text, regular, 11, textWidth)) line(wrapped);
    y -= 6;
  }
  const pages = doc.getPages();
  pages.forEach((p, i) => {
    p.drawText(`${contract.documentId} · página ${i + 1} de ${pages.length}`, {
      x: margin,
      y: 32,
      size: 8,
      font: regular,
      color: rgb(0.45, 0.45, 0.45),
    });
  });
  return doc.save({ useObjectStreams: false });
}
