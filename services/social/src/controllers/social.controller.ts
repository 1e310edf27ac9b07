import { socialV1 } from '@clipit/contracts';
import { GrpcService } from '@clipit/service-kit';
import { DescribeService } from '../services/describe.service.js';
import { FollowsService } from '../services/follows.service.js';
import { LikesService } from '../services/likes.service.js';
import { LiveService } from '../services/live.service.js';

/** social.v1.SocialService: one application-service call per method; the rules live in the services. */
@GrpcService()
@socialV1.SocialServiceControllerMethods()
export class SocialController implements socialV1.SocialServiceController {
  constructor(
    private readonly describer: DescribeService,
    private readonly follows: FollowsService,
    private readonly likes: LikesService,
    private readonly live: LiveService,
  ) {}

  describe(): Promise<socialV1.Description> {
    return this.describer.describe();
  }

  follow(request: socialV1.FollowRequest): Promise<socialV1.FollowState> {
    return this.follows.follow(request);
  }

  unfollow(request: socialV1.UnfollowRequest): Promise<socialV1.FollowState> {
    return this.follows.unfollow(request);
  }

  getFollowState(request: socialV1.GetFollowStateRequest): Promise<socialV1.FollowState> {
    return this.follows.state(request);
  }

  listFollowers(request: socialV1.ListFollowersRequest): Promise<socialV1.ListFollowersResponse> {
    return this.follows.list(request);
  }

  listLiveFollowed(request: socialV1.ListLiveFollowedRequest): Promise<socialV1.LiveStreamers> {
    return this.follows.liveFollowed(request);
  }

  followersAmong(request: socialV1.FollowersAmongRequest): Promise<socialV1.UserIds> {
    return this.follows.followersAmong(request);
  }

  like(request: socialV1.LikeRequest): Promise<socialV1.LikeState> {
    return this.likes.like(request);
  }

  unlike(request: socialV1.UnlikeRequest): Promise<socialV1.LikeState> {
    return this.likes.unlike(request);
  }

  setStreamTime(request: socialV1.SetStreamTimeRequest): Promise<socialV1.StreamState> {
    return this.live.setStreamTime(request);
  }

  goLive(request: socialV1.GoLiveRequest): Promise<socialV1.GoLiveResult> {
    return this.live.goLive(request);
  }

  goOffline(request: socialV1.GoOfflineRequest): Promise<socialV1.StreamState> {
    return this.live.goOffline(request);
  }
}
