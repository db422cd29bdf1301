import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthenticatedRequest } from '../../common/authenticated-request';
import { clientAddress } from '../../common/client-address';
import { LoginThrottle } from '../throttle/login-throttle';
import { AccountFlows } from './account-flows';
import { EmailFlowsEnabledGuard } from './email-flows-enabled.guard';
import { ChangePasswordDto, OneTimeTokenDto, RegisterDto, ResetPasswordDto, SavePasswordDto } from './flows.dto';

/** Registration and password flows (DESIGN §4), rate limited like the credential endpoints. */
@ApiTags('Authentication')
@Controller('api/v1/auth')
@UseGuards(EmailFlowsEnabledGuard)
export class AccountFlowsController {
  constructor(
    private readonly flows: AccountFlows,
    private readonly throttle: LoginThrottle,
  ) {}

  @Post('register')
  @ApiOperation({
    summary:
      'Creates an unverified USER and mails a verification token; a taken username or address gets the same ' +
      'answer and its owner a notice instead (AUTH_EMAIL_FLOWS)',
  })
  async register(@Body() dto: RegisterDto, @Req() request: AuthenticatedRequest) {
    await this.throttle.registerAttempt(clientAddress(request), dto.username);
    return this.flows.register(dto);
  }

  @Post('verify')
  @HttpCode(200)
  @ApiOperation({ summary: 'Verifies the address with the mailed token (single use)' })
  async verify(@Body() dto: OneTimeTokenDto, @Req() request: AuthenticatedRequest) {
    await this.throttle.registerAttempt(clientAddress(request), ':verify');
    return this.flows.verify(dto.token);
  }

  @Post('reset-password')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mails a password-reset token if the address is registered; always 200' })
  async resetPassword(@Body() dto: ResetPasswordDto, @Req() request: AuthenticatedRequest) {
    await this.throttle.registerAttempt(clientAddress(request), dto.email);
    return this.flows.resetPassword(dto);
  }

  @Post('save-password')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sets a new password with the mailed reset token (single use)' })
  async savePassword(@Body() dto: SavePasswordDto, @Req() request: AuthenticatedRequest) {
    await this.throttle.registerAttempt(clientAddress(request), ':save-password');
    return this.flows.savePassword(dto);
  }

  @Post('change-password')
  @HttpCode(200)
  @ApiBearerAuth('bearer')
  @ApiCookieAuth('session')
  @ApiOperation({ summary: 'Changes the password of the logged-in user; ends their sessions and older tokens' })
  changePassword(@Body() dto: ChangePasswordDto, @Req() request: AuthenticatedRequest) {
    return this.flows.changePassword(request.principal ?? null, clientAddress(request), dto);
  }
}
