/**
 * The error catalogue of docs/product-rules.md#error-messages as i18n keys (namespace `errors`). Server and browser
 * both speak in these keys; the text lives in locales/<lng>/errors.json.
 */
export const ERR = {
  sessionExpired: 'errors:sessionExpired',
  network: 'errors:network',
  captchaFetch: 'errors:captchaFetch',
  noRoles: 'errors:noRoles',
  notLoggedIn: 'errors:notLoggedIn',
  downloadFailed: 'errors:downloadFailed',
  server: 'errors:server',
  forbidden: 'errors:forbidden',
  notFound: 'errors:notFound',
  badRequest: 'errors:badRequest',
  badField: 'errors:badField',
  staleWrite: 'errors:staleWrite',
  duplicateRace: 'errors:duplicateRace',
  inUse: 'errors:inUse',
  inUseNamed: 'errors:inUseNamed',
  tooManyRequests: 'errors:tooManyRequests',
  captchaWrong: 'errors:captchaWrong',
  captchaExpired: 'errors:captchaExpired',
  badCredentials: 'errors:badCredentials',
  accountLocked: 'errors:accountLocked',
  accountDisabled: 'errors:accountDisabled',
  oldPasswordWrong: 'errors:oldPasswordWrong',
  oldPasswordSessionEnded: 'errors:oldPasswordSessionEnded',
  passwordChangeRequired: 'errors:passwordChangeRequired',
  mobileTaken: 'errors:mobileTaken',
  invalidRefreshToken: 'errors:invalidRefreshToken',
  onlyExcel: 'errors:onlyExcel',
  chooseYearFirst: 'errors:chooseYearFirst',
  fileTooLarge: 'errors:fileTooLarge',
  fileFormat: 'errors:fileFormat',
  uploadFailed: 'errors:uploadFailed',
  imageDamaged: 'errors:imageDamaged',
  imageDimensions: 'errors:imageDimensions',
  screenLoadTimeout: 'errors:screenLoadTimeout',
  xlsxTooLarge: 'errors:xlsxTooLarge',
  xlsxTooManyRows: 'errors:xlsxTooManyRows',
  xlsxTooManyColumns: 'errors:xlsxTooManyColumns',
  xlsxBadCellRef: 'errors:xlsxBadCellRef',
  xlsxBadChar: 'errors:xlsxBadChar',
  invalidCharacter: 'errors:invalidCharacter',
} as const;

export type ErrorKey = (typeof ERR)[keyof typeof ERR];

/** Success messages of docs/product-rules.md#error-messages. */
export const OK_MSG = {
  operation: 'common:msg.operationOk',
  deleted: 'common:msg.deleteOk',
  saved: 'common:msg.saveOk',
} as const;
