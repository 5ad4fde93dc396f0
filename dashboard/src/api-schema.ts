/**
 * The API's named schemas as types, generated from GET /v1/openapi.json by `npm run api-types`:
 * do not edit.
 * test/ci/dashboard-api-types.test.ts fails when they no longer say what the API says.
 */
export type paths = Record<string, never>;
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    SignupRequest: {
      email: string;
      password: string;
      name?: string | null;
    };
    LoginRequest: {
      email: string;
      password: string;
    };
    RefreshTokenRequest: {
      refreshToken: string;
    };
    DeviceAuthorizationRequest: Record<string, never>;
    DeviceTokenRequest: {
      deviceCode: string;
    };
    UserCodeRequest: {
      /** @description The code shown to the user, e.g. BCDF-GHJK: any case, the dash optional */
      userCode: string;
    };
    DeleteAccountRequest: {
      /** @description The account's email, typed again to confirm the deletion */
      confirm?: string;
    };
    CreateProjectRequest: {
      name: string;
      /** @description Matches /^[a-z]{2,3}(-[A-Z]{2,3})?$/i (any case) */
      sourceLocale: string;
      settings?: {
        provider?: ('openai' | 'anthropic' | 'google' | 'mistral' | 'deepseek' | 'openrouter') | null;
        model?: string | null;
        instructions?: string | null;
        i18nextPlurals?: boolean;
        /** @description Key rules (glob patterns over keys): `humanOnly` keys only people translate, `neverTranslate` keys whose targets carry the source text, `exclude` keys left out of targets. Each list given replaces that list; one left out stays. At most 200 patterns per list. A key several lists match follows exclude, then neverTranslate, then humanOnly. Matching never backtracks; rules costing more than 2,000 steps per key character are refused, and so are rules whose cost times the characters of the project's source keys passes the server budget (KEY_RULES_BUDGET, 100,000,000 by default): 400 VALIDATION_ERROR naming it */
        keyRules?: {
          humanOnly?: string[];
          neverTranslate?: string[];
          exclude?: string[];
        };
        outdateOnContextChange?: boolean;
      };
    };
    UpdateProjectRequest: {
      name?: string;
      /** @description Matches /^[a-z]{2,3}(-[A-Z]{2,3})?$/i (any case) */
      sourceLocale?: string;
      settings?: {
        provider?: ('openai' | 'anthropic' | 'google' | 'mistral' | 'deepseek' | 'openrouter') | null;
        model?: string | null;
        instructions?: string | null;
        i18nextPlurals?: boolean;
        /** @description Key rules (glob patterns over keys): `humanOnly` keys only people translate, `neverTranslate` keys whose targets carry the source text, `exclude` keys left out of targets. Each list given replaces that list; one left out stays. At most 200 patterns per list. A key several lists match follows exclude, then neverTranslate, then humanOnly. Matching never backtracks; rules costing more than 2,000 steps per key character are refused, and so are rules whose cost times the characters of the project's source keys passes the server budget (KEY_RULES_BUDGET, 100,000,000 by default): 400 VALIDATION_ERROR naming it */
        keyRules?: {
          humanOnly?: string[];
          neverTranslate?: string[];
          exclude?: string[];
        };
        outdateOnContextChange?: boolean;
      };
    };
    AddMemberRequest: {
      email: string;
      /**
       * @default member
       * @enum {string}
       */
      role: 'owner' | 'member';
    };
    UpdateMemberRequest: {
      /** @enum {string} */
      role: 'owner' | 'member';
    };
    CreateGlossaryEntryRequest: {
      term: string;
      /** @default false */
      caseSensitive: boolean;
      /** @default false */
      keepAsIs: boolean;
      note?: string | null;
      translations?: {
        [key: string]: string;
      };
    };
    UpdateGlossaryEntryRequest: {
      term?: string;
      caseSensitive?: boolean;
      keepAsIs?: boolean;
      note?: string | null;
      translations?: {
        [key: string]: string;
      };
    };
    ReplaceGlossaryRequest: {
      entries: components['schemas']['CreateGlossaryEntryRequest'][];
    };
    AddLocaleRequest: {
      /** @description Matches /^[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*(?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?$/i (any case) */
      locale: string;
    };
    /** @description Up to 5000 source texts; with `near` of 1 or more, up to 100 (each is a similarity search) */
    MemoryLookupRequest: {
      texts: string[];
      near?: number;
    };
    CreateTokenRequest: {
      /** @description One line of text, 1 to 200 characters once surrounding whitespace is trimmed */
      label: string;
      /** @enum {string} */
      permissions: 'read' | 'read_write';
    };
    StoreProviderKeyRequest: {
      /** @description The provider's key, 8 to 4096 characters once surrounding whitespace is trimmed */
      apiKey: string;
    };
    Error: {
      error: {
        /** @description An upper-case error code, e.g. VALIDATION_ERROR */
        code: string;
        /** @description What went wrong, for people */
        message: string;
      };
    };
    User: {
      userId: string;
      email: string;
      name: string | null;
      /** @description Epoch milliseconds */
      createdAt: number;
    };
    Session: {
      user: components['schemas']['User'];
      /** @description An ES256 JWT for `Authorization: Bearer` */
      accessToken: string;
      /** @description For POST /v1/auth/refresh; rotated on every use */
      refreshToken: string;
      /** @description Seconds until the access token expires */
      expiresIn: number;
    };
    DeviceAuthorization: {
      deviceCode: string;
      userCode: string;
      verificationUri: string;
      verificationUriComplete: string;
      expiresIn: number;
      interval: number;
    };
    Project: {
      projectId: string;
      name: string;
      sourceLocale: string;
      /** @description The CLI's configuration: AI provider, model, instructions for the translator; how keys are read and which the model translates */
      settings: {
        provider: string | null;
        model: string | null;
        instructions: string | null;
        /** @description Whether sibling keys item_one, item_other are read as an i18next plural group, translated into each target locale's own plural forms (default true) */
        i18nextPlurals: boolean;
        /** @description Glob patterns over key paths (`.` separates segments; `*` matches within one segment, `**` any number of segments; whole key, case-sensitive; at most 200 patterns of 500 characters per list). A key several lists match follows exclude, then neverTranslate, then humanOnly */
        keyRules: {
          /** @description Keys only people translate: the model is never asked for them; they stay missing until a person uploads one */
          humanOnly: string[];
          /** @description Keys never translated (brand names, URLs): every target carries the source text, counted as translated */
          neverTranslate: string[];
          /** @description Keys left out of every target locale: not in target files, not counted, not missing */
          exclude: string[];
        };
        /** @description Whether a changed context annotation ("@key": {"description", "maxLength"}) outdates the translations of its key in every target locale (default true) */
        outdateOnContextChange: boolean;
      };
      /** @description The caller's role; null for a project API token */
      role: ('owner' | 'member') | null;
      /** @description Epoch milliseconds */
      createdAt: number;
      /** @description Epoch milliseconds */
      updatedAt: number;
    };
    ProjectList: {
      projects: components['schemas']['Project'][];
    };
    Member: {
      userId: string;
      email: string | null;
      /** @enum {string} */
      role: 'owner' | 'member';
    };
    MemberList: {
      members: components['schemas']['Member'][];
    };
    GlossaryEntry: {
      entryId: string;
      term: string;
      /** @description Whether the term matches only as spelled */
      caseSensitive: boolean;
      /** @description The term stays untranslated in every locale */
      keepAsIs: boolean;
      note: string | null;
      /** @description Target locale (canonical BCP 47 code) → the rendering the translation must use */
      translations: {
        [key: string]: string;
      };
      /** @description Epoch milliseconds */
      createdAt: number;
      /** @description Epoch milliseconds */
      updatedAt: number;
    };
    Glossary: {
      /** @description The entries of this page, ordered by term ignoring case */
      entries: components['schemas']['GlossaryEntry'][];
      /** @description Entries of the whole glossary (at most 10,000) */
      total?: number;
      /** @description Text the whole glossary holds, in UTF-8 bytes of its terms, notes, locale codes and renderings (at most 4,194,304) */
      bytes?: number;
      /** @description Send it as `cursor` for the next page; null on the last page */
      nextCursor?: string | null;
    };
    GlossaryImportResult: {
      /** @description Entries with a term new to the glossary */
      created: number;
      /** @description Existing entries that changed */
      updated: number;
      unchanged: number;
      /** @description Entries the import left out (0 when merging) */
      deleted: number;
      /** @description Entries of the glossary after the import */
      total: number;
      /** @description Text the glossary holds after the import, in UTF-8 bytes */
      bytes: number;
    };
    Diff: {
      /** @description Keys that are new */
      added: string[];
      /** @description Keys whose value changed */
      modified: string[];
      /** @description Keys that were removed */
      deleted: string[];
    };
    UploadResult: {
      version: number;
      diff: components['schemas']['Diff'];
      keyCount: number;
      /** @description True when the pending diff holds added or modified keys */
      needsTranslation: boolean;
    };
    SourceFile: {
      version: number;
      /** @description Matches /^[a-z]{2,3}(-[A-Z]{2,3})?$/i (any case) */
      locale: string;
      keyCount: number;
      /** @description The source locale JSON, serialized as a string */
      content: string;
      pendingDiff: components['schemas']['Diff'];
      /** @description Epoch milliseconds */
      updatedAt: number;
    };
    SourceVersionList: {
      versions: {
        version: number;
        keyCount: number;
        added: number;
        modified: number;
        deleted: number;
        /** @description Epoch milliseconds */
        createdAt: number;
        /** @description Keys of this version that are renames of deleted keys (their translations carried over) */
        renamed: number;
        /** @description Keys added again with a value they had before (their last translations restored) */
        restored: number;
        /** @description The version's renames, old key to new key (the first 100) */
        renames: {
          from: string;
          to: string;
        }[];
        /** @description The restored keys with the version whose value they got back (the first 100) */
        restores: {
          key: string;
          version: number;
        }[];
      }[];
    };
    Locale: {
      /** @description Matches /^[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*(?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?$/i (any case) */
      locale: string;
      /** @enum {string} */
      status: 'behind' | 'up_to_date';
      /** @description The source version these translations have caught up with */
      syncedVersion: number;
      /** @description The current source version */
      sourceVersion: number;
      /** @description The locale's keys: the source's, with each i18next plural group as the locale's own CLDR forms */
      keyCount: number;
      /** @description Keys with a current translation: a person's translation with findings counts as translated */
      translatedCount: number;
      missingCount: number;
      outdatedCount: number;
      /** @description Keys whose translation has at least one finding of severity `error` */
      errorCount: number;
      /** @description Keys whose translation has findings of severity `warning` and none of severity `error` */
      warningCount: number;
      /** @description Epoch milliseconds */
      updatedAt: number;
    };
    UploadedLocale: {
      /** @description Matches /^[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*(?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?$/i (any case) */
      locale: string;
      /** @enum {string} */
      status: 'behind' | 'up_to_date';
      /** @description The source version these translations have caught up with */
      syncedVersion: number;
      /** @description The current source version */
      sourceVersion: number;
      /** @description The locale's keys: the source's, with each i18next plural group as the locale's own CLDR forms */
      keyCount: number;
      /** @description Keys with a current translation: a person's translation with findings counts as translated */
      translatedCount: number;
      missingCount: number;
      outdatedCount: number;
      /** @description Keys whose translation has at least one finding of severity `error` */
      errorCount: number;
      /** @description Keys whose translation has findings of severity `warning` and none of severity `error` */
      warningCount: number;
      /** @description Epoch milliseconds */
      updatedAt: number;
      /** @description Keys of the upload the locale does not have for the source version it was made from (unknown keys, plural forms the language does not use): not stored. At most 100 are named */
      ignored: string[];
      /** @description How many keys were ignored */
      ignoredCount: number;
    };
    LocaleDetail: {
      /** @description Matches /^[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*(?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?$/i (any case) */
      locale: string;
      /** @enum {string} */
      status: 'behind' | 'up_to_date';
      /** @description The source version these translations have caught up with */
      syncedVersion: number;
      /** @description The current source version */
      sourceVersion: number;
      /** @description The locale's keys: the source's, with each i18next plural group as the locale's own CLDR forms */
      keyCount: number;
      /** @description Keys with a current translation: a person's translation with findings counts as translated */
      translatedCount: number;
      missingCount: number;
      outdatedCount: number;
      /** @description Keys whose translation has at least one finding of severity `error` */
      errorCount: number;
      /** @description Keys whose translation has findings of severity `warning` and none of severity `error` */
      warningCount: number;
      /** @description Epoch milliseconds */
      updatedAt: number;
      /** @description The locale's keys with no translation (a plural group's forms are the locale's own) */
      missing: string[];
      /** @description Keys whose source changed since they were translated (any change to a plural group outdates all its forms) */
      outdated: string[];
      /** @description The findings of the stored translations, as judged when they were uploaded, of the current source's keys only, in key order */
      findings: {
        /**
         * @description `icu`: does not parse where the source does, or a plural/select without `other`; `placeholder`: a source placeholder lost or one added; `markup`: tags lost, added or unbalanced; `plural`: a CLDR category the language has but the message lacks (`other` covers it), or one it never uses; `copy`: the source text as it is
         * @enum {string}
         */
        kind: 'icu' | 'placeholder' | 'markup' | 'plural' | 'copy' | 'max-length' | 'glossary';
        /**
         * @description `error`: breaks or misleads at run time; `warning`: tolerated, or perhaps intended
         * @enum {string}
         */
        severity: 'error' | 'warning';
        message: string;
        /** @description The locale's key (flattened, as `home.title`) */
        key: string;
      }[];
    };
    LocaleList: {
      locales: components['schemas']['Locale'][];
    };
    Translations: {
      /** @description Matches /^[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*(?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?$/i (any case) */
      locale: string;
      syncedVersion: number;
      /** @description The source version the stored translations were uploaded for (0: none uploaded); an upload of edits to them is made from this version */
      translatedFrom: number;
      /** @description The translations as a JSON string, in the source's nesting */
      content: string;
      /** @description Epoch milliseconds */
      updatedAt: number;
      /** @description Key of `content` (flattened, as `home.title`) → who wrote its translation, in the order of `content`, where it is known (see `unknownWriters`). */
      provenance: {
        [key: string]: {
          /**
           * @description `ai`: written by a model; `human`: by a person; `memory`: reused from translation memory
           * @enum {string}
           */
          by: 'ai' | 'human' | 'memory';
          /** @description With `ai` only: the model, as `<provider>:<model>` (`openai:gpt-4o-mini`) */
          model?: string;
          /** @description When the upload that wrote it was stored (epoch milliseconds) */
          at: number;
        };
      };
      /** @description Keys of `content` whose translation was stored before Tolk kept who wrote each translation (or carried over from such a translation by a rename or a restore): who wrote it is not known, and it may be a person's, in the order of `content` */
      unknownWriters?: string[];
    };
    MemoryLookup: {
      /**
       * @description Present (true) only when near matches were asked for and the search took longer than the server allows (500 ms by default) and was given up: every `near` is then empty because the search did not finish, not because nothing similar is stored. Exact matches are looked up in full either way
       * @constant
       */
      nearTimedOut?: true;
      matches: {
        text: string;
        /** @description The translation of an identical source text: this project's first, then the most recent of the caller's other projects */
        exact: {
          translation: string;
          /** @description The key the translation was stored for */
          key: string;
          /** @description The project it comes from: this one, or another the caller can read */
          projectId: string;
          /** @description Epoch milliseconds */
          updatedAt: number;
        } | null;
        near: {
          translation: string;
          /** @description The key the translation was stored for */
          key: string;
          /** @description The project it comes from: this one, or another the caller can read */
          projectId: string;
          /** @description Epoch milliseconds */
          updatedAt: number;
          /** @description The similar source text that was translated */
          source: string;
          /** @description pg_trgm similarity, 0 to 1 */
          similarity: number;
        }[];
      }[];
    };
    KeyPage: {
      sourceVersion: number;
      /** @description The locales shown, in the order they were added */
      locales: string[];
      /** @description Keys matching the filters, on every page */
      total: number;
      offset: number;
      limit: number;
      keys: {
        key: string;
        /** @description The source text: for a plural form the source doesn't have (Polish `_few`), its group's `other` form */
        source: string | null;
        /** @description The context annotation, if any */
        description: string | null;
        /** @description Per shown locale; a locale that has no such key (another plural form) is absent */
        locales: {
          [key: string]: {
            value: string | null;
            /** @enum {string} */
            status: 'missing' | 'outdated' | 'translated';
            /** @description Who wrote the stored value; null when none is stored */
            provenance:
              | (
                  | {
                      /**
                       * @description `ai`: written by a model; `human`: by a person; `memory`: reused from translation memory
                       * @enum {string}
                       */
                      by: 'ai' | 'human' | 'memory';
                      /** @description With `ai` only: the model, as `<provider>:<model>` (`openai:gpt-4o-mini`) */
                      model?: string;
                      /** @description When the upload that wrote it was stored (epoch milliseconds) */
                      at: number;
                    }
                  | {
                      /**
                       * @description `unknown`: stored before Tolk kept who wrote each translation (or carried over from such a translation by a rename or a restore): who wrote it is not known, and it may be a person's
                       * @constant
                       */
                      by: 'unknown';
                    }
                )
              | null;
            /** @description The findings of the stored value, as judged when it was uploaded (empty: none) */
            findings: {
              /**
               * @description `icu`: does not parse where the source does, or a plural/select without `other`; `placeholder`: a source placeholder lost or one added; `markup`: tags lost, added or unbalanced; `plural`: a CLDR category the language has but the message lacks (`other` covers it), or one it never uses; `copy`: the source text as it is
               * @enum {string}
               */
              kind: 'icu' | 'placeholder' | 'markup' | 'plural' | 'copy' | 'max-length' | 'glossary';
              /**
               * @description `error`: breaks or misleads at run time; `warning`: tolerated, or perhaps intended
               * @enum {string}
               */
              severity: 'error' | 'warning';
              message: string;
            }[];
          };
        };
      }[];
    };
    ApiToken: {
      tokenId: string;
      /** @description The first 10 characters of the token; only in the list view */
      tokenPrefix: string | null;
      label: string;
      /** @enum {string} */
      permissions: 'read' | 'read_write';
      /** @description Epoch milliseconds; null when never used */
      lastUsedAt: number | null;
      /** @description Epoch milliseconds */
      createdAt: number;
    };
    CreateTokenResponse: {
      tokenId: string;
      tokenPrefix: null;
      label: string;
      /** @enum {string} */
      permissions: 'read' | 'read_write';
      lastUsedAt: null;
      /** @description Epoch milliseconds */
      createdAt: number;
      /** @description The full token (`tolk_…`), shown only in this answer; it cannot be retrieved again */
      token: string;
    };
    ApiTokenList: {
      tokens: {
        tokenId: string;
        tokenPrefix: string;
        label: string;
        /** @enum {string} */
        permissions: 'read' | 'read_write';
        /** @description Epoch milliseconds; null when never used */
        lastUsedAt: number | null;
        /** @description Epoch milliseconds */
        createdAt: number;
        /** @description The member who created the token; removing them from the project revokes it */
        createdBy: {
          userId: string;
        };
      }[];
    };
    ByokKeyStatus: {
      hasKey: boolean;
      /** @description The decrypted key; "" when hasKey is false */
      apiKey: string;
    };
    StoredProviderKey: {
      /** @enum {string} */
      provider: 'openai' | 'anthropic' | 'google' | 'mistral' | 'deepseek' | 'openrouter';
      /** @constant */
      hasKey: true;
      /** @description The last 4 characters of the key */
      hint: string;
      /** @description Epoch milliseconds */
      updatedAt: number;
    };
    ProviderKeyStatus: {
      /** @enum {string} */
      provider: 'openai' | 'anthropic' | 'google' | 'mistral' | 'deepseek' | 'openrouter';
      hasKey: boolean;
      hint: string | null;
      updatedAt: number | null;
    };
    ProviderKeyList: {
      keys: components['schemas']['ProviderKeyStatus'][];
    };
    /** @description An OpenAPI 3.1 document: this one */
    OpenApiDocument: {
      openapi: string;
      info: Record<string, never>;
      paths: Record<string, never>;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description The id of this request, also in every log line about it; quote it when reporting a problem */
    'X-Request-Id': string;
    /** @description Seconds to wait before trying again */
    'Retry-After': number;
    /** @description The version of what was answered as an entity tag, e.g. `"3"`: the source version for the source, the revision of a locale's translations for them. Send it back as `If-Match` with the upload based on it */
    ETag: string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
