// The part of the reference publisher package's API the engine bench calls.
declare module '@rckflr/llms-skills' {
  export interface ValidationMessage {
    message: string;
    line: string;
  }
  export function validateLlmsTxt(source: string, text: string): { errors: ValidationMessage[]; warnings: ValidationMessage[] };
}
