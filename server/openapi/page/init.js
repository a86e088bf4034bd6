// The reference page: Swagger UI over this server's own document, with nothing fetched from elsewhere.
window.ui = window.SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  filter: true,
  displayRequestDuration: true,
  defaultModelsExpandDepth: 0,
  // Swagger UI would otherwise ask an outside validator service about the document.
  validatorUrl: null,
});
