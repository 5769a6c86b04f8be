/** JSON data as the stages pass it around: what YAML documents and manifests are made of. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
