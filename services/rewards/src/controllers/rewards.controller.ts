import { rewardsV1 } from '@clipit/contracts';
import { GrpcService } from '@clipit/service-kit';
import { DashboardNotices } from '../services/dashboard-notices.service.js';
import { DescribeService } from '../services/describe.service.js';
import { EarningHoldsService, type DecidedHold } from '../services/earning-holds.service.js';
import { RewardsQueryService } from '../services/rewards-query.service.js';

/** rewards.v1.RewardsService: one application-service call per method; the rules live in the services. */
@GrpcService()
@rewardsV1.RewardsServiceControllerMethods()
export class RewardsController implements rewardsV1.RewardsServiceController {
  constructor(
    private readonly describer: DescribeService,
    private readonly rewards: RewardsQueryService,
    private readonly notices: DashboardNotices,
    private readonly holds: EarningHoldsService,
  ) {}

  describe(): Promise<rewardsV1.Description> {
    return this.describer.describe();
  }

  getDashboard(request: rewardsV1.GetDashboardRequest): Promise<rewardsV1.Dashboard> {
    return this.rewards.dashboard(request);
  }

  getClipperStats(request: rewardsV1.GetClipperStatsRequest): Promise<rewardsV1.ClipperStats> {
    return this.rewards.stats(request);
  }

  async refreshPoints(request: rewardsV1.RefreshPointsRequest): Promise<rewardsV1.ClipperStats> {
    const stats = await this.rewards.refresh(request);
    // Committed: the clipper's dashboard shows the new standing.
    this.notices.users([request.userId], 'refresh-points');
    return stats;
  }

  listEarnings(request: rewardsV1.ListEarningsRequest): Promise<rewardsV1.EarningsPage> {
    return this.rewards.listEarnings(request);
  }

  listPayouts(request: rewardsV1.ListPayoutsRequest): Promise<rewardsV1.PayoutsPage> {
    return this.rewards.listPayouts(request);
  }

  listTiers(): Promise<rewardsV1.Tiers> {
    return this.rewards.listTiers();
  }

  releaseEarning(request: rewardsV1.ReleaseEarningRequest): Promise<rewardsV1.EarningHold> {
    return this.told(this.holds.release(request), 'earning-released');
  }

  voidEarning(request: rewardsV1.VoidEarningRequest): Promise<rewardsV1.EarningHold> {
    return this.told(this.holds.void(request), 'earning-voided');
  }

  listHolds(request: rewardsV1.ListHoldsRequest): Promise<rewardsV1.EarningHolds> {
    return this.holds.holdsOf(request);
  }

  /** Committed: the clipper's dashboard shows the decision. */
  private async told(decided: Promise<DecidedHold>, cause: string): Promise<rewardsV1.EarningHold> {
    const { hold, userId } = await decided;
    this.notices.users([userId], cause);
    return hold;
  }
}
