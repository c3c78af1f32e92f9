import { NodeInputError } from '../errors';
import { fileLocation, toFileValue } from '../values/files';
import type { Impl } from './shared';

export const ocr: Impl<'ocr'> = {
  async run({ fields, services, signal }) {
    const file = toFileValue(fields.file, 'document');
    if (!file)
      throw new NodeInputError('OCR needs an image or a PDF: a file, a data: URL or an http(s) URL.');
    const result = await services.ocr({ modelId: fields.modelId, document: fileLocation(file), signal });
    return { text: result.text };
  },
};
