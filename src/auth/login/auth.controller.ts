import { Body, Controller, HttpCode, Post, Req, Res, UnauthorizedException } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Role } from '../../common/principal';
import { AppConfig } from '../../config';
import { AuthenticatedRequest } from '../../common/authenticated-request';
import { TokenRevocations } from '../revocation/token-revocations';
import { SESSION_COOKIE, sessionCookieOptions, sessionIdOf } from '../sessions/session-cookie';
import { SessionStore } from '../sessions/session-store';
import { TokenVerifier } from '../token-verifier';
import { AuthenticateDto, CredentialsDto, LogoutDto, TokenResponse, TokenValidity, ValidateTokenDto } from './auth.dto';
import { clientAddress } from '../../common/client-address';
import { CredentialCheck } from './credential-check';
import { TokenIssuer } from './token-issuer';

/** Tokens, sessions and logout (DESIGN §4). */
@ApiTags('Authentication')
@Controller('api/v1')
export class AuthController {
  constructor(
    private readonly credentials: CredentialCheck,
    private readonly issuer: TokenIssuer,
    private readonly verifier: TokenVerifier,
    private readonly sessions: SessionStore,
    private readonly revocation: TokenRevocations,
    private readonly config: AppConfig,
  ) {}

  @Post('auth/token')
  @HttpCode(200)
  @ApiOperation({
    summary: 'A JWT for username and password: {token, expires (epoch ms)}; 401 bad credentials, 429 throttled',
  })
  async token(@Body() dto: CredentialsDto, @Req() request: AuthenticatedRequest): Promise<TokenResponse> {
    const user = await this.credentials.check(clientAddress(request), dto.username, dto.password);
    return this.issuer.issue(user);
  }

  @Post('auth/validate-token')
  @HttpCode(200)
  @ApiOperation({ summary: '{valid: true, username, role, expires} or {valid: false, reason}' })
  async validateToken(@Body() dto: ValidateTokenDto): Promise<TokenValidity> {
    try {
      const { username, role, exp = 0 } = await this.verifier.verify(dto.token);
      return { valid: true, username, role, expires: exp * 1000 };
    } catch (error: unknown) {
      if (error instanceof UnauthorizedException) return { valid: false, reason: error.message };
      throw error;
    }
  }

  /** Starts a session in a fresh cookie; a session the request already had is ended (no session fixation). */
  @Post('authenticate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Starts a session: {username, role} and an HttpOnly SESSION cookie' })
  async authenticate(
    @Body() dto: AuthenticateDto,
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ username: string; role: string }> {
    const user = await this.credentials.check(clientAddress(request), dto.username, dto.password);
    const previous = sessionIdOf(request);
    if (previous) await this.sessions.destroy(previous);
    const rememberMe = dto.rememberMe ?? false;
    const session = await this.sessions.create(user.id, rememberMe);
    const expires = rememberMe ? session.expiresAt : undefined;
    response.cookie(SESSION_COOKIE, session.id, sessionCookieOptions(this.config.isProduction, expires));
    return { username: user.username, role: user.role };
  }

  /**
   * Ends the request's session and revokes its bearer token until that token would expire. The answer's `role` is
   * the caller's as the server verified it (token or session; `guest` without either), never the body's.
   */
  @Post('logout')
  @HttpCode(200)
  @ApiBearerAuth('bearer')
  @ApiCookieAuth('session')
  @ApiOperation({ summary: 'Ends the session and revokes the bearer token until it expires' })
  async logout(
    @Body() _body: LogoutDto, // validated (the spec's body), but the answer never echoes it
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ loggedOut: true; role: string }> {
    const { jti, exp, role = Role.GUEST } = request.principal ?? {};
    if (jti && exp) await this.revocation.revoke(jti, exp);
    const sessionId = sessionIdOf(request);
    if (sessionId) await this.sessions.destroy(sessionId);
    response.clearCookie(SESSION_COOKIE, sessionCookieOptions(this.config.isProduction));
    return { loggedOut: true, role: role.toLowerCase() };
  }
}
