// The account's passkeys as the second factor's rules see them (a second factor needs a generator or
// a passkey): other capabilities read this capability's data through here, never through its
// repository. Its own file: passkeys.service.ts asks the modes whether a second factor is required,
// so the modes cannot import it.
export { countPasskeysOf } from "./passkeys.repository.ts";
