import { identityV1 } from '@clipit/contracts';
import { GrpcService } from '@clipit/service-kit';
import { ImageUploadService } from '../services/image-upload.service.js';
import { AuthService } from '../services/auth.service.js';
import { EmailVerificationService } from '../services/email-verification.service.js';
import { PlaceholderService } from '../services/placeholder.service.js';
import { TokenService } from '../services/token.service.js';
import { UserService } from '../services/user.service.js';
import { XSignInService } from '../services/x-sign-in.service.js';

/** identity.v1.IdentityService: one service call per method; the rules live in the services. */
@GrpcService()
@identityV1.IdentityServiceControllerMethods()
export class IdentityController implements identityV1.IdentityServiceController {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UserService,
    private readonly tokens: TokenService,
    private readonly placeholders: PlaceholderService,
    private readonly images: ImageUploadService,
    private readonly xSignIn: XSignInService,
    private readonly emailVerification: EmailVerificationService,
  ) {}

  signUp(request: identityV1.SignUpRequest): Promise<identityV1.AuthResult> {
    return this.auth.signUp(request);
  }

  logIn(request: identityV1.LogInRequest): Promise<identityV1.AuthResult> {
    return this.auth.logIn(request);
  }

  signInWithX(request: identityV1.SignInWithXRequest): Promise<identityV1.SignInWithXResponse> {
    return this.xSignIn.signIn(request);
  }

  logOut(request: identityV1.LogOutRequest): Promise<identityV1.LogOutResponse> {
    return this.auth.logOut(request);
  }

  resolveSession(request: identityV1.ResolveSessionRequest): Promise<identityV1.User> {
    return this.auth.resolveSession(request);
  }

  resolveSessionWithExpiry(request: identityV1.ResolveSessionWithExpiryRequest): Promise<identityV1.ResolvedSession> {
    return this.auth.resolveSessionWithExpiry(request);
  }

  resolveSessions(request: identityV1.ResolveSessionsRequest): Promise<identityV1.ResolveSessionsResponse> {
    return this.auth.resolveSessions(request);
  }

  getUser(request: identityV1.GetUserRequest): Promise<identityV1.User> {
    return this.users.getUser(request);
  }

  getUsers(request: identityV1.GetUsersRequest): Promise<identityV1.GetUsersResponse> {
    return this.users.getUsers(request);
  }

  requestPasswordReset(request: identityV1.RequestPasswordResetRequest): Promise<identityV1.RequestPasswordResetResponse> {
    return this.auth.requestPasswordReset(request);
  }

  confirmPasswordReset(request: identityV1.ConfirmPasswordResetRequest): Promise<identityV1.ConfirmPasswordResetResponse> {
    return this.auth.confirmPasswordReset(request);
  }

  sendEmailVerification(request: identityV1.SendEmailVerificationRequest): Promise<identityV1.SendEmailVerificationResponse> {
    return this.emailVerification.send(request);
  }

  verifyEmail(request: identityV1.VerifyEmailRequest): Promise<identityV1.User> {
    return this.emailVerification.verify(request);
  }

  updateWallet(request: identityV1.UpdateWalletRequest): Promise<identityV1.User> {
    return this.users.updateWallet(request);
  }

  listSessions(request: identityV1.ListSessionsRequest): Promise<identityV1.ListSessionsResponse> {
    return this.auth.listSessions(request);
  }

  endOtherSessions(request: identityV1.EndOtherSessionsRequest): Promise<identityV1.EndOtherSessionsResponse> {
    return this.auth.endOtherSessions(request);
  }

  updateProfile(request: identityV1.UpdateProfileRequest): Promise<identityV1.User> {
    return this.users.updateProfile(request);
  }

  createImageUpload(request: identityV1.CreateImageUploadRequest): Promise<identityV1.ImageUpload> {
    return this.images.create(request);
  }

  authorizeImageUpload(request: identityV1.AuthorizeImageUploadRequest): Promise<identityV1.AuthorizedImageUpload> {
    return this.images.authorize(request);
  }

  abortImageUpload(request: identityV1.AbortImageUploadRequest): Promise<identityV1.AbortImageUploadResponse> {
    return this.images.abort(request);
  }

  setProfileImage(request: identityV1.SetProfileImageRequest): Promise<identityV1.User> {
    return this.images.setImage(request);
  }

  listTokens(): Promise<identityV1.ListTokensResponse> {
    return this.tokens.listTokens();
  }

  getToken(request: identityV1.GetTokenRequest): Promise<identityV1.Token> {
    return this.tokens.getToken(request.id);
  }

  listMyTokens(request: identityV1.ListMyTokensRequest): Promise<identityV1.ListTokensResponse> {
    return this.tokens.listMyTokens(request);
  }

  createToken(request: identityV1.CreateTokenRequest): Promise<identityV1.Token> {
    return this.tokens.createToken(request);
  }

  updateToken(request: identityV1.UpdateTokenRequest): Promise<identityV1.Token> {
    return this.tokens.updateToken(request);
  }

  listStreamers(): Promise<identityV1.ListStreamersResponse> {
    return this.users.listStreamers();
  }

  createPlaceholderStreamer(request: identityV1.CreatePlaceholderStreamerRequest): Promise<identityV1.PlaceholderStreamer> {
    return this.placeholders.create(request);
  }

  listPlaceholderStreamers(): Promise<identityV1.ListPlaceholderStreamersResponse> {
    return this.placeholders.list();
  }
}
