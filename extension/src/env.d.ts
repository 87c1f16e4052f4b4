/** The server address the build was made for (`EXTENSION_API_URL`, else `PUBLIC_URL`; extension/build.mjs). */
declare const __API_URL__: string;
