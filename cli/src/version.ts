/** The CLI's version, as in cli/package.json (a test keeps the two equal). */
export const CLI_VERSION = '0.1.0';
