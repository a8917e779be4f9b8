// swagger-parser's check of a document against the OpenAPI meta-schema, used alone (contract/openapi-loader.ts).
declare module '@apidevtools/swagger-parser/lib/validators/schema.js' {
  /** Throws a SyntaxError listing what does not validate. */
  export default function validateSchema(api: unknown): void;
}
