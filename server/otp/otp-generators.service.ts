// The account's generators as the authentication modes see them (a second factor needs one): other
// capabilities read this capability's data through here, never through its repository. Its own file:
// otp.service.ts asks the modes whether a second factor is required, so the modes cannot import it.
export { countGeneratorsOf, lockAccount } from "./otp.repository.ts";
