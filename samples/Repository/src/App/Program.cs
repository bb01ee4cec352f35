Console.WriteLine(LibA.Messages.Welcome("CloneCopy"));
