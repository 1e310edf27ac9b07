import { feedV1 } from '@clipit/contracts';
import { GrpcService } from '@clipit/service-kit';
import { DescribeService } from '../services/describe.service.js';
import { LagService } from '../services/lag.service.js';
import { ReadService } from '../services/read.service.js';

/** feed.v1.FeedService: one application-service call per method; the rules live in the services. */
@GrpcService()
@feedV1.FeedServiceControllerMethods()
export class FeedController implements feedV1.FeedServiceController {
  constructor(
    private readonly describer: DescribeService,
    private readonly reads: ReadService,
    private readonly lag: LagService,
  ) {}

  describe(): Promise<feedV1.Description> {
    return this.describer.describe();
  }

  listFeedClips(req: feedV1.ListFeedClipsRequest): Promise<feedV1.FeedClipsPage> {
    return this.reads.feedClips(req);
  }

  likedAmong(req: feedV1.LikedAmongRequest): Promise<feedV1.ClipIds> {
    return this.reads.likedAmong(req);
  }

  leaderboardPosts(req: feedV1.LeaderboardPostsRequest): Promise<feedV1.LeaderboardPostsResponse> {
    return this.reads.leaderboardPosts(req);
  }

  leaderboardUsers(req: feedV1.LeaderboardUsersRequest): Promise<feedV1.LeaderboardUsersResponse> {
    return this.reads.leaderboardUsers(req);
  }

  getLeaderboardStats(): Promise<feedV1.LeaderboardStats> {
    return this.reads.leaderboardStats();
  }

  featuredClippers(req: feedV1.FeaturedClippersRequest): Promise<feedV1.FeaturedClippersResponse> {
    return this.reads.featuredClippers(req);
  }

  topStreamers(req: feedV1.TopStreamersRequest): Promise<feedV1.TopStreamersResponse> {
    return this.reads.topStreamers(req);
  }

  listCreators(req: feedV1.ListCreatorsRequest): Promise<feedV1.ListCreatorsResponse> {
    return this.reads.creators(req);
  }

  getClipperProfile(req: feedV1.GetClipperProfileRequest): Promise<feedV1.ClipperProfile> {
    return this.reads.clipperProfile(req);
  }

  listTaggedVideos(req: feedV1.ListTaggedVideosRequest): Promise<feedV1.TaggedVideos> {
    return this.reads.taggedVideos(req);
  }

  getProjectionLag(): Promise<feedV1.ProjectionLag> {
    return this.lag.fresh();
  }
}
